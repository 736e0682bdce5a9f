import { defineFeature } from '../../platform/feature';
import { SamplingService } from './samplingService';

/** A server's sampling requests, reviewed by the person and sent to the model they chose. */
export const samplingFeature = defineFeature({
  name: 'sampling',
  activate({ platform, own, extension, services }) {
    const sampling = new SamplingService(
      extension.secrets,
      extension.globalState,
      platform.reviewPanel,
      () => platform.manager,
    );
    platform.lend({ sampling: sampling.sampling });
    services.offer('chatModels', { providers: sampling.providers });
    own(sampling, sampling.records.onDidRecord(platform.historyRecorder.recordSampling));
    return {
      commands: {
        'mcpWorkbench.setModelApiKey': () => sampling.setApiKeyCommand(),
        'mcpWorkbench.setSamplingPolicy': (argument) => sampling.setPolicyCommand(argument),
        'mcpWorkbench.showSamplingHistory': (argument) => sampling.showRecordsCommand(argument, platform.documents),
      },
      exports: { sampling },
    };
  },
});
