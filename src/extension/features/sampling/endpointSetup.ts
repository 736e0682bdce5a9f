/**
 * Add Model Endpoint as a guided input: name, base URL, model, API key, one step each with Back, instead of the
 * Settings UI at an array setting that offers only "Edit in settings.json" (the first-hour trial, 2.5). The endpoint
 * goes to the user's settings (mcpWorkbench.sampling.endpoints is application-scoped: a workspace must not choose where
 * prompts go); the key goes to SecretStorage only, never into the setting, and a base URL carrying credentials
 * (`https://user:key@host`) is refused, as it would put a secret in settings.json. No vscode import: it runs in unit
 * tests (endpointInput.ts draws the steps, with the words in the person's language).
 */

export interface EndpointEntry {
  name: string;
  baseUrl: string;
  model: string;
}

/** A problem with a step's value: an error keeps the step open, a warning lets it go on. */
export interface StepProblem {
  message: string;
  severity: 'error' | 'warning';
}

export interface EndpointStep {
  id: 'name' | 'baseUrl' | 'model' | 'apiKey';
  /** 1-based, of `total`. */
  step: number;
  total: number;
  /** The value to start from: the one given before, when the person came back with Back. */
  value: string;
  password: boolean;
  validate(value: string): StepProblem | undefined;
}

export type StepAnswer = { kind: 'value'; value: string } | { kind: 'back' } | { kind: 'cancel' };

/** The words of the checks, in the person's language (endpointInput.ts gives them through vscode.l10n). */
export interface EndpointWords {
  nameRequired: string;
  nameTaken: (name: string) => string;
  urlInvalid: string;
  urlScheme: string;
  urlCredentials: string;
  urlPlainHttp: string;
  modelRequired: string;
}

export interface EndpointSetupHost {
  ask(step: EndpointStep): Promise<StepAnswer>;
  /** The setting's current value (whatever is there: entries this code does not understand are kept). */
  endpoints(): unknown[];
  /** Writes the setting in the user's settings. */
  writeEndpoints(endpoints: unknown[]): Promise<void>;
  /** Stores the endpoint's key in SecretStorage. */
  storeKey(endpointName: string, key: string): Promise<void>;
  words: EndpointWords;
}

/** Whether a host is this machine (a plain-HTTP endpoint there sends its key nowhere else). */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

export function checkBaseUrl(value: string, words: EndpointWords): StepProblem | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return { message: words.urlInvalid, severity: 'error' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { message: words.urlScheme, severity: 'error' };
  if (url.username !== '' || url.password !== '') return { message: words.urlCredentials, severity: 'error' };
  if (url.protocol === 'http:' && !isLoopback(url.hostname))
    return { message: words.urlPlainHttp, severity: 'warning' };
  return undefined;
}

function names(endpoints: readonly unknown[]): string[] {
  return endpoints.flatMap((endpoint) =>
    typeof endpoint === 'object' && endpoint !== null && typeof (endpoint as { name?: unknown }).name === 'string'
      ? [(endpoint as { name: string }).name]
      : [],
  );
}

/**
 * Asks the four steps (Back returns to the previous one with its value kept; Escape ends without writing anything),
 * then writes the endpoint and stores its key. Returns the endpoint written, or undefined when the person left.
 */
export async function addModelEndpoint(host: EndpointSetupHost): Promise<EndpointEntry | undefined> {
  const { words } = host;
  const taken = names(host.endpoints());
  const values = { name: '', baseUrl: '', model: '', apiKey: '' };
  const steps: Omit<EndpointStep, 'step' | 'total' | 'value'>[] = [
    {
      id: 'name',
      password: false,
      validate: (value) => {
        const name = value.trim();
        if (name === '') return { message: words.nameRequired, severity: 'error' };
        if (taken.includes(name)) return { message: words.nameTaken(name), severity: 'error' };
        return undefined;
      },
    },
    { id: 'baseUrl', password: false, validate: (value) => checkBaseUrl(value, words) },
    {
      id: 'model',
      password: false,
      validate: (value) => (value.trim() === '' ? { message: words.modelRequired, severity: 'error' } : undefined),
    },
    // Optional: a local server (Ollama, LM Studio) needs none.
    { id: 'apiKey', password: true, validate: () => undefined },
  ];
  let index = 0;
  while (index < steps.length) {
    const step = steps[index];
    if (!step) break;
    const answer = await host.ask({ ...step, step: index + 1, total: steps.length, value: values[step.id] });
    switch (answer.kind) {
      case 'cancel':
        return undefined;
      case 'back':
        index = Math.max(0, index - 1);
        continue;
      case 'value': {
        // The input refuses an error already; checked again so no caller can write a value that fails it.
        if (step.validate(answer.value)?.severity === 'error') continue;
        values[step.id] = step.password ? answer.value : answer.value.trim();
        index++;
        continue;
      }
      default: {
        const exhaustive: never = answer;
        return exhaustive;
      }
    }
  }
  const entry: EndpointEntry = { name: values.name, baseUrl: values.baseUrl, model: values.model };
  await host.writeEndpoints([...host.endpoints(), entry]);
  if (values.apiKey !== '') await host.storeKey(entry.name, values.apiKey);
  return entry;
}
