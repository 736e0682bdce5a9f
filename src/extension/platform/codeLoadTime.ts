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
  const started = hostMark(extensionId, 'willLoadExtensionCode');
  const ended = hostMark(extensionId, 'didLoadExtensionCode');
  return started !== undefined && ended !== undefined ? ended - started : undefined;
}

/**
 * How long ago VS Code began this extension's activation, by its mark (`code/extHost/willActivateExtension/<id>`, set
 * before it calls the entry's activate(): a packed build's entry loads the extension's code in it, scripts/pack-chunks.js).
 * Undefined where the host sets no such mark. The extension host's marks are wall-clock times (Date.now()).
 */
export function msSinceActivationStarted(extensionId: string): number | undefined {
  const started = hostMark(extensionId, 'willActivateExtension');
  return started === undefined ? undefined : Date.now() - started;
}

function hostMark(extensionId: string, event: string): number | undefined {
  const marks = (globalThis as { MonacoPerformanceMarks?: HostMarks }).MonacoPerformanceMarks?.getMarks() ?? [];
  return marks.find((mark) => mark.name === `code/extHost/${event}/${extensionId}`)?.startTime;
}
