// Globals a VS Code webview provides to its scripts (media/**/*.js), for `tsc -p media`.

/** The handle a webview script gets once from acquireVsCodeApi(). */
interface VsCodeWebviewApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState<T>(state: T): T;
}

/** Returns the webview's API handle; VS Code allows one call per webview document. */
declare function acquireVsCodeApi(): VsCodeWebviewApi;

interface Window {
  /** The one API handle of the page, shared by the scripts of a page that loads more than one (the tool form). */
  mcpVsCodeApi?: VsCodeWebviewApi;
}
