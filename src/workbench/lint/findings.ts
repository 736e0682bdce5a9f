import { ruleOf, type LintRuleId, type LintSeverity } from './rules';
import { QUOTE_CHARS } from './targets';

export { targetOf, type LintTargetKind } from './targets';

/** One thing a rule found. Every string that quotes the server is cut short; it is still the server's text. */
export interface LintFinding {
  severity: LintSeverity;
  rule: LintRuleId;
  /** What it is about: `tool:<name>`, `prompt:<name>`, `template:<name>` or `server`. */
  target: string;
  /** Where inside it, in the Inspector's notation (`inputSchema.properties.city.type`); '' for the whole target. */
  path: string;
  message: string;
  /** The mechanical fix, when there is one. */
  fix?: string;
}

/** A rule reports at most this many findings per target: a schema with 900 loose objects says so 20 times, then once more. */
export const MAX_FINDINGS_PER_RULE_AND_TARGET = 20;
/** And a server at most this many in all, so the report of 50,000 broken tools stays readable and small. */
export const MAX_FINDINGS = 5_000;

export function quote(text: string): string {
  return JSON.stringify(text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text);
}

/** A path is made of the server's keys: 500 levels of them are kept as their start and their end. */
const PATH_CHARS = 240;

function shortPath(path: string): string {
  return path.length > PATH_CHARS ? `${path.slice(0, PATH_CHARS / 2)}…${path.slice(-PATH_CHARS / 2)}` : path;
}

/** Collects findings within the caps above. */
export class FindingSink {
  readonly findings: LintFinding[] = [];
  private readonly perRuleAndTarget = new Map<string, number>();
  /** Findings left out by the caps. */
  dropped = 0;

  add(rule: LintRuleId, target: string, path: string, message: string, fix?: string, severity?: LintSeverity): void {
    const key = `${rule}\u0000${target}`;
    const count = this.perRuleAndTarget.get(key) ?? 0;
    if (count >= MAX_FINDINGS_PER_RULE_AND_TARGET || this.findings.length >= MAX_FINDINGS) {
      this.dropped++;
      return;
    }
    this.perRuleAndTarget.set(key, count + 1);
    const finding: LintFinding = {
      severity: severity ?? ruleOf(rule).severity,
      rule,
      target,
      path: shortPath(path),
      message,
    };
    if (fix !== undefined) finding.fix = fix;
    this.findings.push(finding);
  }
}

const ORDER: Record<LintSeverity, number> = { error: 0, warning: 1, info: 2 };

/** Whether `severity` is at `level` or worse. */
export function atLeast(severity: LintSeverity, level: LintSeverity): boolean {
  return ORDER[severity] <= ORDER[level];
}

/** Errors first, then warnings, then notes; within one severity, in the order found. */
export function bySeverity(findings: readonly LintFinding[]): LintFinding[] {
  return findings
    .map((finding, index) => ({ finding, index }))
    .sort((a, b) => ORDER[a.finding.severity] - ORDER[b.finding.severity] || a.index - b.index)
    .map(({ finding }) => finding);
}
