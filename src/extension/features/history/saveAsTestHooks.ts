// Apart from saveAsTest.ts, which loads when Save as Test first runs: the test build's hooks set these at activation.

/** What Save as Test asks when some chosen steps were answered before the server last started; a test hook sees this. */
export interface EarlierAnswersQuestion {
  serverName: string;
  message: string;
  detail: string;
  /** The buttons, in order; the answer is one of them or undefined (Cancel). */
  buttons: readonly string[];
}

/** Test hook: answers the question instead of the modal (the label of the button, or undefined for Cancel). */
export const saveAsTestHooks: { answerEarlierAnswers?: (question: EarlierAnswersQuestion) => string | undefined } = {};
