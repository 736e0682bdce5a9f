import type { InputEntry } from '../config/jsoncEdit';
import type { RegistryInput } from './types';

/**
 * Turns a registry `Input` into the text written in mcp.json: the publisher's fixed value (with its `{variables}`
 * filled in), or `${input:id}` with an `inputs` definition so the client asks the person at first start (secrets
 * as password inputs, stored in secret storage, never in the file), or the default, or nothing.
 */
export class InputCollector {
  readonly inputs: InputEntry[] = [];
  private readonly used: Set<string>;

  /**
   * @param prefix makes ids unique to this server (its key in mcp.json).
   * @param serverLabel names the server in each prompt, so the person knows who is asking.
   * @param takenIds ids already defined in the target file.
   */
  constructor(
    private readonly prefix: string,
    private readonly serverLabel: string,
    takenIds: readonly string[] = [],
  ) {
    this.used = new Set(takenIds);
  }

  /** The text for an input, or undefined when it is optional, has no value and no default (left out). */
  resolve(input: RegistryInput, label: string): string | undefined {
    if (input.value !== undefined) return this.fillVariables(input.value, input.variables);
    if (input.isSecret || input.isRequired || input.choices) return this.prompt(input, label);
    return input.default;
  }

  /** `{name}` placeholders replaced: a variable with a fixed value gives it, any other is asked for. */
  fillVariables(template: string, variables: Record<string, RegistryInput>): string {
    return template.replace(/\{([A-Za-z0-9_.-]+)\}/g, (whole, name: string) => {
      const variable = Object.hasOwn(variables, name) ? variables[name] : undefined;
      if (!variable) return whole;
      return variable.value !== undefined ? variable.value : this.prompt(variable, name);
    });
  }

  private prompt(input: RegistryInput, label: string): string {
    const id = this.uniqueId(`${this.prefix}-${label}`);
    const description = `${this.serverLabel}: ${input.description ?? label}`.slice(0, 500);
    const entry: InputEntry = input.choices
      ? {
          type: 'pickString',
          id,
          description,
          options: input.choices,
          ...(input.default !== undefined ? { default: input.default } : {}),
        }
      : {
          type: 'promptString',
          id,
          description,
          ...(input.isSecret ? { password: true } : {}),
          ...(input.default !== undefined && !input.isSecret ? { default: input.default } : {}),
        };
    this.inputs.push(entry);
    return `\${input:${id}}`;
  }

  private uniqueId(base: string): string {
    const clean =
      base
        .replace(/[^A-Za-z0-9_.-]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 100) || 'input';
    let id = clean;
    for (let n = 2; this.used.has(id); n++) id = `${clean}-${n}`;
    this.used.add(id);
    return id;
  }
}
