/**
 * Doctor's report as text: the CLI's readable output and the Markdown the editor shows and copies for an issue
 * tracker. A step's detail holds a server's words (its stderr, its error messages, its name): in Markdown each one
 * goes inside a code fence longer than any run of backticks in it, so nothing a server writes renders as a link,
 * an image or HTML.
 */
import type { DoctorReport } from './doctor';

export function doctorText(report: DoctorReport): string {
  const lines: string[] = [];
  for (const step of report.steps) {
    lines.push(`${step.ok ? 'ok  ' : 'FAIL'} ${step.step}: ${step.detail}`);
    if (step.fix) lines.push(`     fix: ${step.fix}`);
  }
  const failed = report.steps.find((step) => !step.ok);
  lines.push(failed ? `stopped at "${failed.step}"` : 'every step passed');
  return lines.join('\n');
}

function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${text}\n${fence}`;
}

export interface DoctorMarkdownWords {
  title: string;
  passed: string;
  failed: string;
  fix: string;
  summary: string;
}

/** The Markdown report; `words` are the host's (translated) labels, step names and details stay as they are. */
export function doctorMarkdown(report: DoctorReport, words: DoctorMarkdownWords): string {
  const parts = [`# ${words.title}`, '', fenced(report.server), '', words.summary, ''];
  for (const step of report.steps) {
    parts.push(`## ${step.ok ? '✓' : '✗'} ${step.step} — ${step.ok ? words.passed : words.failed}`, '');
    parts.push(fenced(step.detail), '');
    if (step.fix) parts.push(`${words.fix}:`, '', fenced(step.fix), '');
  }
  return parts.join('\n');
}
