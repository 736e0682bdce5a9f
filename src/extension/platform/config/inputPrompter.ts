import * as vscode from 'vscode';
import type { InputDefinition } from '../../../workbench/config/mcpConfig';
import type { ServerEntry } from './serverEntry';

/** A test hook that answers prompts instead of the UI; the answer is stored exactly like a typed one. */
export type PromptAnswerer = (request: {
  serverName: string;
  inputId: string;
  input: InputDefinition | undefined;
}) => Promise<string | undefined>;

/** workspaceState key listing every stored input, so "Forget Stored Inputs" can find the secrets too. */
const INDEX_KEY = 'mcpWorkbench.storedInputs';
const VALUE_KEY_PREFIX = 'mcpWorkbench.input:';

interface StoredInputRef {
  key: string;
  secret: boolean;
}

/** One stored answer as Forget Stored Inputs lists it: which input of which config file; never its value. */
export interface StoredInput {
  key: string;
  inputId: string;
  /** The config file the answer belongs to (`mcp.json` of a folder, the user's settings). */
  configUri: string;
  secret: boolean;
}

/** Answers Forget Stored Inputs instead of the quick pick and the confirmation (test hooks only). */
export interface ForgetAnswerer {
  pick(stored: readonly StoredInput[]): readonly string[] | undefined;
  confirm(count: number): boolean;
}

/**
 * Asks once for `${input:id}` values declared in `inputs` and remembers them per config source: `password: true`
 * values in SecretStorage (the OS keychain; never a file or a log), the others in workspaceState. Values of password
 * inputs seen in this session are offered to the log and trace maskers.
 */
export class InputPrompter {
  private readonly secretValues = new Set<string>();
  /** Test hook (see PromptAnswerer); undefined means the real input box or quick pick. */
  answerer: PromptAnswerer | undefined;
  /** Test hook (see ForgetAnswerer); undefined means the real quick pick and modal. */
  forgetAnswerer: ForgetAnswerer | undefined;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
  ) {}

  async valueFor(entry: ServerEntry, id: string): Promise<string | undefined> {
    const input = entry.inputs.find((candidate) => candidate.id === id);
    const secret = input?.password === true;
    const key = `${VALUE_KEY_PREFIX}${entry.origin.configUri.toString()}#${id}`;
    const stored = secret ? await this.secrets.get(key) : this.state.get<string>(key);
    if (stored !== undefined) {
      if (secret) this.secretValues.add(stored);
      return stored;
    }
    const value = this.answerer
      ? await this.answerer({ serverName: entry.name, inputId: id, input })
      : await this.ask(entry, id, input);
    if (value === undefined) return undefined;
    if (secret) {
      this.secretValues.add(value);
      await this.secrets.store(key, value);
    } else {
      await this.state.update(key, value);
    }
    await this.remember({ key, secret });
    return value;
  }

  /** Password values known this session, for masking logs and traces. */
  knownSecrets(): string[] {
    return [...this.secretValues];
  }

  /** The stored answers, for Forget Stored Inputs to choose from. */
  stored(): StoredInput[] {
    return this.state.get<StoredInputRef[]>(INDEX_KEY, []).map((ref) => {
      const rest = ref.key.slice(VALUE_KEY_PREFIX.length);
      const hash = rest.lastIndexOf('#');
      return { key: ref.key, secret: ref.secret, configUri: rest.slice(0, hash), inputId: rest.slice(hash + 1) };
    });
  }

  /** Forgets the stored values of these keys (SecretStorage and workspaceState); their next start asks again. Returns the count. */
  async forget(keys: readonly string[]): Promise<number> {
    const refs = this.state.get<StoredInputRef[]>(INDEX_KEY, []);
    const chosen = refs.filter((ref) => keys.includes(ref.key));
    for (const ref of chosen) {
      if (ref.secret) await this.secrets.delete(ref.key);
      else await this.state.update(ref.key, undefined);
    }
    // Read again: an answer stored meanwhile stays listed.
    const left = this.state.get<StoredInputRef[]>(INDEX_KEY, []).filter((ref) => !keys.includes(ref.key));
    await this.state.update(INDEX_KEY, left.length ? left : undefined);
    return chosen.length;
  }

  private async remember(ref: StoredInputRef): Promise<void> {
    const refs = this.state.get<StoredInputRef[]>(INDEX_KEY, []);
    if (!refs.some((known) => known.key === ref.key)) await this.state.update(INDEX_KEY, [...refs, ref]);
  }

  private ask(entry: ServerEntry, id: string, input: InputDefinition | undefined): Thenable<string | undefined> {
    const title = vscode.l10n.t('MCP server {0}', entry.name);
    if (input?.type === 'pickString') {
      return vscode.window.showQuickPick(input.options ?? [], {
        title,
        placeHolder: input.description ?? id,
        ignoreFocusOut: true,
      });
    }
    return vscode.window.showInputBox({
      title,
      prompt: input?.description ?? vscode.l10n.t('Value for input "{0}"', id),
      value: input?.default,
      password: input?.password ?? false,
      ignoreFocusOut: true,
    });
  }
}
