/**
 * oauth4webapi, re-exported from one place. It is ESM-only while this project compiles to CommonJS: esbuild
 * bundles it into dist/ and tsx loads it in tests, so only the type checker (module Node16) needs the
 * exemption below; the types still come from the package.
 */
// @ts-expect-error TS1479: a CommonJS file importing an ES module; the bundler resolves it.
export * from 'oauth4webapi';
