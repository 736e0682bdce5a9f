import * as vscode from 'vscode';
import type { Skill } from '../../../protocol/extensions/skills';
import type { ServerController } from '../../platform/servers/serverController';

const SKILL_SCHEME = 'mcp-skill';

/** A path segment safe in a document URI (server and skill names come from elsewhere: no separators, no dots-only). */
function safeSegment(text: string): string {
  const cleaned = text.replace(/[/\\?#%\x00-\x1f]/g, '_');
  return cleaned === '' || /^\.+$/.test(cleaned) ? '_' : cleaned;
}

/**
 * Read-only documents of verified skill content only, tagged with their server:
 * `mcp-skill:/<server>/<skill>/<file>?key`. Content is put here after verification and never fetched by the provider,
 * so reopening a tab cannot show an unverified copy.
 */
export class SkillDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly verified = new Map<string, string>();
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
  private readonly registration: vscode.Disposable;
  readonly onDidChange = this.changeEmitter.event;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(SKILL_SCHEME, this);
  }

  uriFor(controller: ServerController, skill: Skill, fileUri: string): vscode.Uri {
    const relative = fileUri.startsWith(skill.uri.slice(0, -'SKILL.md'.length))
      ? fileUri.slice(skill.uri.length - 'SKILL.md'.length)
      : fileUri;
    const path = [
      '',
      safeSegment(controller.name),
      safeSegment(skill.frontmatter.name),
      ...relative.split('/').map(safeSegment),
    ].join('/');
    return vscode.Uri.from({
      scheme: SKILL_SCHEME,
      path,
      query: new URLSearchParams({ server: controller.id, uri: fileUri }).toString(),
    });
  }

  async show(controller: ServerController, skill: Skill, fileUri: string, text: string): Promise<vscode.TextEditor> {
    const uri = this.uriFor(controller, skill, fileUri);
    this.verified.set(uri.toString(), text);
    this.changeEmitter.fire(uri);
    let document = await vscode.workspace.openTextDocument(uri);
    if (fileUri.endsWith('.md')) document = await vscode.languages.setTextDocumentLanguage(document, 'markdown');
    return vscode.window.showTextDocument(document, { preview: false });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.verified.get(uri.toString()) ??
      vscode.l10n.t('This skill file is not loaded: open it from the Skills section of its server.')
    );
  }

  dispose(): void {
    this.registration.dispose();
    this.changeEmitter.dispose();
    this.verified.clear();
  }
}
