/** The marks VS Code's extension host keeps (its own performance module), as far as this file reads them. */
interface HostMarks {
  getMarks(): readonly { name: string; startTime: number }[];
}

/**
 * How long VS Code took to load this extension's code, by its own measure: the marks it sets around the import of
 * `main` (`code/extHost/willLoadExtensionCode/<id>` and `didLoadExtensionCode`), which cover reading, compiling and
 * evaluating extension.js and every file it imports. A mark inside the bundle cannot: it runs after the file was read
 * and compiled (and, were it an ES module, after its imports were evaluated). Undefined where the host sets no such marks.
 */
export function codeLoadMs(extensionId: string): number | undefined {
  const marks = (globalThis as { MonacoPerformanceMarks?: HostMarks }).MonacoPerformanceMarks?.getMarks() ?? [];
  const at = (event: string) => marks.find((mark) => mark.name === `code/extHost/${event}/${extensionId}`)?.startTime;
  const started = at('willLoadExtensionCode');
  const ended = at('didLoadExtensionCode');
  return started !== undefined && ended !== undefined ? ended - started : undefined;
}
