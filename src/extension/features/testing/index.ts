import { defineFeature } from '../../platform/feature';
import { RecordingTests } from './recordingTests';

/** Recorded sessions (`*.mcptest.json`) as tests in Test Explorer; re-recording a step. */
export const testingFeature = defineFeature({
  name: 'testing',
  activate({ platform, services, own }) {
    const recordings = new RecordingTests(platform.manager);
    own(recordings);
    services.offer('recordings', { add: (uri) => recordings.add(uri) });
    return {
      commands: { 'mcpWorkbench.rerecordTestStep': (item) => recordings.rerecord(item) },
      exports: undefined,
    };
  },
});
