import * as vscode from 'vscode';

/** A duration in the person's words: "250 ms", "45 s", "2 min 5 s" (zh-CN: "250 毫秒", "45 秒", "2 分 5 秒"). */
export function sayDuration(ms: number): string {
  if (ms < 1000) return vscode.l10n.t('{0} ms', Math.round(ms));
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return vscode.l10n.t('{0} s', seconds);
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest === 0 ? vscode.l10n.t('{0} min', minutes) : vscode.l10n.t('{0} min {1} s', minutes, rest);
}
