import type { Tool } from '../../protocol/types';

type AppTheme = 'light' | 'dark';
export type AppDisplayMode = 'inline' | 'fullscreen' | 'pip';
/** The editor's theme kinds; high contrast ones map to the nearest light/dark and keep their own colours. */
export type EditorThemeKind = 'light' | 'dark' | 'high-contrast' | 'high-contrast-light';

export function appTheme(kind: EditorThemeKind): AppTheme {
  switch (kind) {
    case 'light':
    case 'high-contrast-light':
      return 'light';
    case 'dark':
    case 'high-contrast':
      return 'dark';
    default: {
      const exhaustive: never = kind;
      return exhaustive;
    }
  }
}

/**
 * The spec's standard host CSS variables, each taken from a VS Code theme variable. The webview page resolves the
 * `--vscode-*` values (an app's frame cannot see the page's variables) and hands the concrete values in.
 */
export const APP_STYLE_SOURCES: Readonly<Record<string, string>> = Object.freeze({
  '--color-background-primary': '--vscode-editor-background',
  '--color-background-secondary': '--vscode-sideBar-background',
  '--color-background-tertiary': '--vscode-editorWidget-background',
  '--color-background-inverse': '--vscode-editor-foreground',
  '--color-background-ghost': '--vscode-toolbar-hoverBackground',
  '--color-background-info': '--vscode-inputValidation-infoBackground',
  '--color-background-danger': '--vscode-inputValidation-errorBackground',
  '--color-background-success': '--vscode-diffEditor-insertedTextBackground',
  '--color-background-warning': '--vscode-inputValidation-warningBackground',
  '--color-background-disabled': '--vscode-input-background',
  '--color-text-primary': '--vscode-editor-foreground',
  '--color-text-secondary': '--vscode-descriptionForeground',
  '--color-text-tertiary': '--vscode-disabledForeground',
  '--color-text-inverse': '--vscode-editor-background',
  '--color-text-info': '--vscode-editorInfo-foreground',
  '--color-text-danger': '--vscode-errorForeground',
  '--color-text-success': '--vscode-testing-iconPassed',
  '--color-text-warning': '--vscode-editorWarning-foreground',
  '--color-text-disabled': '--vscode-disabledForeground',
  '--color-border-primary': '--vscode-panel-border',
  '--color-border-secondary': '--vscode-widget-border',
  '--color-border-info': '--vscode-editorInfo-foreground',
  '--color-border-danger': '--vscode-inputValidation-errorBorder',
  '--color-border-warning': '--vscode-inputValidation-warningBorder',
  '--color-ring-primary': '--vscode-focusBorder',
  '--font-sans': '--vscode-font-family',
  '--font-mono': '--vscode-editor-font-family',
  '--font-text-md-size': '--vscode-font-size',
});

/** A resolved style value may only be a plain CSS value: no url(), no expression, no braces or semicolons. */
export function safeStyleValue(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > 200 || /[;{}<>\\]|url\s*\(|expression\s*\(/i.test(trimmed)) return undefined;
  return trimmed;
}

interface ContainerSize {
  readonly width: number;
  readonly maxHeight: number;
}

/** What the host knows about where the app is drawn; changes are sent as `host-context-changed`. */
export interface HostSurroundings {
  readonly theme: AppTheme;
  readonly styles: Readonly<Record<string, string>>;
  readonly displayMode: AppDisplayMode;
  readonly container: ContainerSize;
  readonly locale: string;
  readonly timeZone: string;
}

const AVAILABLE_DISPLAY_MODES: readonly AppDisplayMode[] = ['inline', 'fullscreen'];

/** `hostContext` of ui/initialize. */
export function hostContext(
  surroundings: HostSurroundings,
  tool: Tool,
  callId: string | number | undefined,
): Record<string, unknown> {
  return {
    toolInfo: { ...(callId === undefined ? {} : { id: callId }), tool },
    theme: surroundings.theme,
    styles: { variables: { ...surroundings.styles } },
    displayMode: surroundings.displayMode,
    availableDisplayModes: [...AVAILABLE_DISPLAY_MODES],
    containerDimensions: { width: surroundings.container.width, maxHeight: surroundings.container.maxHeight },
    locale: surroundings.locale,
    timeZone: surroundings.timeZone,
    userAgent: 'mcp-workbench',
    platform: 'desktop',
    deviceCapabilities: { touch: false, hover: true },
  };
}

/** The fields of `next` that differ from `previous` (the spec sends only what changed). */
export function changedContext(
  previous: HostSurroundings,
  next: HostSurroundings,
): Record<string, unknown> | undefined {
  const changed: Record<string, unknown> = {};
  if (previous.theme !== next.theme) changed.theme = next.theme;
  if (JSON.stringify(previous.styles) !== JSON.stringify(next.styles))
    changed.styles = { variables: { ...next.styles } };
  if (previous.displayMode !== next.displayMode) changed.displayMode = next.displayMode;
  if (previous.container.width !== next.container.width || previous.container.maxHeight !== next.container.maxHeight) {
    changed.containerDimensions = { width: next.container.width, maxHeight: next.container.maxHeight };
  }
  if (previous.locale !== next.locale) changed.locale = next.locale;
  if (previous.timeZone !== next.timeZone) changed.timeZone = next.timeZone;
  return Object.keys(changed).length > 0 ? changed : undefined;
}

/** How recent the person's gesture in an app must be for the app's own display-mode switch to take the focus. */
export const APP_GESTURE_WINDOW_MS = 1000;

/**
 * Whether an app's switch to fullscreen may take the keyboard focus: only right after the person acted in the app
 * (`lastGestureAt`, when the host page last relayed a message while the app's frame held a fresh user activation and
 * the focus). Otherwise the tab is shown without the focus: an app switching on its own (a timer, an answer) must not
 * raise itself over the editor and swallow what the person is typing there.
 */
export function switchTakesFocus(lastGestureAt: number | undefined, now: number): boolean {
  return lastGestureAt !== undefined && now - lastGestureAt >= 0 && now - lastGestureAt <= APP_GESTURE_WINDOW_MS;
}
