/**
 * The suffix that makes a file a recorded session (CLI `test`, Test Explorer, the JSON schema association). On its own
 * so that the Test Explorer's start-up finds the files without loading the format's reader and its rule engine.
 */
export const MCPTEST_SUFFIX = '.mcptest.json';
