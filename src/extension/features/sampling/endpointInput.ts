import * as vscode from 'vscode';
import { addModelEndpoint, type EndpointEntry, type EndpointStep, type StepAnswer } from './endpointSetup';
import { readEndpointsSetting, secretKey, writeUserEndpoints } from './settings';

/** One step as an input box: Back (the title bar's arrow) returns to the previous step, Escape leaves. */
function askStep(step: EndpointStep): Promise<StepAnswer> {
  const texts: Record<EndpointStep['id'], { title: string; prompt: string; placeholder: string }> = {
    name: {
      title: vscode.l10n.t('Add Model Endpoint: name'),
      prompt: vscode.l10n.t('A name for the endpoint, shown beside its models; its API key is stored under it.'),
      placeholder: vscode.l10n.t('e.g. {0}', 'Local Ollama'),
    },
    baseUrl: {
      title: vscode.l10n.t('Add Model Endpoint: base URL'),
      prompt: vscode.l10n.t('The base URL of an OpenAI-compatible API (its /chat/completions is called).'),
      placeholder: vscode.l10n.t('e.g. {0}', 'http://127.0.0.1:11434/v1'),
    },
    model: {
      title: vscode.l10n.t('Add Model Endpoint: model'),
      prompt: vscode.l10n.t('The model name sent to the endpoint.'),
      placeholder: vscode.l10n.t('e.g. {0}', 'llama3.2'),
    },
    apiKey: {
      title: vscode.l10n.t('Add Model Endpoint: API key'),
      prompt: vscode.l10n.t(
        "Stored in VS Code's secret storage, never in settings or logs. Leave empty if the endpoint needs none.",
      ),
      placeholder: vscode.l10n.t('API key (optional)'),
    },
  };
  const text = texts[step.id];
  const input = vscode.window.createInputBox();
  input.title = text.title;
  input.prompt = text.prompt;
  input.placeholder = text.placeholder;
  input.step = step.step;
  input.totalSteps = step.total;
  input.value = step.value;
  input.password = step.password;
  input.ignoreFocusOut = true;
  input.buttons = step.step > 1 ? [vscode.QuickInputButtons.Back] : [];
  const check = () => {
    // An empty first look says nothing: the prompt already says what is wanted.
    const problem = input.value === '' ? undefined : step.validate(input.value);
    input.validationMessage = problem && {
      message: problem.message,
      severity:
        problem.severity === 'error'
          ? vscode.InputBoxValidationSeverity.Error
          : vscode.InputBoxValidationSeverity.Warning,
    };
  };
  check();
  return new Promise<StepAnswer>((resolve) => {
    let answered = false;
    const answer = (value: StepAnswer) => {
      if (answered) return;
      answered = true;
      resolve(value);
      input.dispose();
    };
    input.onDidChangeValue(check);
    input.onDidTriggerButton((button) => {
      if (button === vscode.QuickInputButtons.Back) answer({ kind: 'back' });
    });
    input.onDidAccept(() => {
      const problem = step.validate(input.value);
      if (problem?.severity === 'error') {
        input.validationMessage = { message: problem.message, severity: vscode.InputBoxValidationSeverity.Error };
        return;
      }
      answer({ kind: 'value', value: input.value });
    });
    input.onDidHide(() => answer({ kind: 'cancel' }));
    input.show();
  });
}

/**
 * MCP Workbench's Add Model Endpoint: the guided input (endpointSetup.ts), then the endpoint written to the user's
 * settings and shown in a notification that can open them.
 */
export async function addModelEndpointInput(secrets: vscode.SecretStorage): Promise<EndpointEntry | undefined> {
  const entry = await addModelEndpoint({
    ask: askStep,
    endpoints: readEndpointsSetting,
    writeEndpoints: writeUserEndpoints,
    storeKey: async (name, key) => {
      await secrets.store(secretKey(name), key);
    },
    words: {
      nameRequired: vscode.l10n.t('A name is required.'),
      nameTaken: (name) => vscode.l10n.t('An endpoint named "{0}" exists already.', name),
      urlInvalid: vscode.l10n.t('Not a URL: it starts with https:// or http://.'),
      urlScheme: vscode.l10n.t('Only https:// and http:// URLs can be used.'),
      urlCredentials: vscode.l10n.t(
        'Leave the user name and password out of the URL: the API key is asked next and kept in secret storage.',
      ),
      urlPlainHttp: vscode.l10n.t(
        'Plain http:// to another machine: prompts and the API key travel unencrypted. Use https:// unless this is a trusted network.',
      ),
      modelRequired: vscode.l10n.t('A model name is required.'),
    },
  });
  if (!entry) return undefined;
  const open = vscode.l10n.t('Open Settings');
  void vscode.window
    .showInformationMessage(
      vscode.l10n.t('Model endpoint "{0}" added: {1} at {2}.', entry.name, entry.model, entry.baseUrl),
      open,
    )
    .then((choice) => {
      if (choice === open)
        void vscode.commands.executeCommand('workbench.action.openSettings', 'mcpWorkbench.sampling.endpoints');
    });
  return entry;
}
