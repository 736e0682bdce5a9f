import { defineFeature } from '../../platform/feature';
import { RecordingTests } from './recordingTests';

/** Recorded sessions (`*.mcptest.json`) as tests in Test Explorer; re-recording a step. */
export const testingFeature = defineFeature({
  name: 'testing',
  activate({ platform, services, own }) {
    const recordings = new RecordingTests(platform.manager, platform.confirmation);
    own(recordings);
    services.offer('recordings', { add: (uri) => recordings.add(uri) });
    return {
      commands: { 'mcpWorkbench.rerecordTestStep': (item) => recordings.rerecord(item) },
      // For the test build's hooks only (the binding confirmation's answerer, the verdicts of a run).
      exports: { recordings },
    };
  },
});
