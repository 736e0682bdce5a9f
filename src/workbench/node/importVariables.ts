/** Moved to the dialects (live reading and import share it); kept so existing callers keep their import. */
export { translateVariables, type VariableDialect } from '../config/dialects/dialectVariables';
