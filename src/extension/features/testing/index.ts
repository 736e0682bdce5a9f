import { defineFeature } from '../../platform/feature';
import { EvalTests } from './evalTests';
import { RecordingTests } from './recordingTests';

/** Recorded sessions (`*.mcptest.json`) and evals (`*.mcpeval.json`) as tests in Test Explorer; re-recording a step. */
export const testingFeature = defineFeature({
  name: 'testing',
  activate({ platform, services, own }) {
    const recordings = new RecordingTests(platform.manager, platform.confirmation);
    // The models are sampling's: asked for when a run starts, so the order features activate in does not matter.
    const evals = new EvalTests(platform.manager, () => services.get('chatModels'));
    own(recordings, evals);
    services.offer('recordings', { add: (uri) => recordings.add(uri) });
    return {
      commands: { 'mcpWorkbench.rerecordTestStep': (item) => recordings.rerecord(item) },
      // For the test build's hooks only (the binding confirmation's answerer, the verdicts of a run).
      exports: { recordings, evals },
    };
  },
});
