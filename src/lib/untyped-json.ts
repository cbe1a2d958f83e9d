/**
 * A JSON value used without a schema type. The CLI's text renderers format the handlers' answers, whose
 * shapes openapi.yaml declares and the contract tests check; restating each answer as a TypeScript type here
 * would be a second copy of that document. One named home for that choice, so every other `any` is a lint error.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type UntypedJson = any;
export type UntypedRecord = Record<string, UntypedJson>;
