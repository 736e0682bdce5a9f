// Test-only runner extension: runs an integration suite inside the VS Code extension host.
//
// When MCP_INTEGRATION_SUITE names a CommonJS file, activation requires it, calls its exported
// `run(vscode)` and writes the result as JSON to MCP_INTEGRATION_RESULT:
//   { passed: string[], failed: { name, error }[], crash?: string, vscodeVersion, nodeVersion, durationMs }
// A suite that throws, fails to load, or returns something else is reported as `crash`.
// Without those variables the runner does nothing.
//
// Plain CommonJS on purpose (VS Code loads extensions with require), hence the rule below.
/* eslint-disable @typescript-eslint/no-require-imports */
'use strict';

const fs = require('fs');
const path = require('path');
const vscode = require('vscode');

function describe(error) {
  if (error instanceof Error) return error.stack || `${error.name}: ${error.message}`;
  return String(error);
}

function isStringArray(value) {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isFailureArray(value) {
  return (
    Array.isArray(value) &&
    value.every(
      (item) =>
        item !== null && typeof item === 'object' && typeof item.name === 'string' && typeof item.error === 'string',
    )
  );
}

/** Writes the file in one step (temp file + rename) so the waiting test never reads half a result. */
function writeResult(resultPath, result) {
  fs.mkdirSync(path.dirname(resultPath), { recursive: true });
  const temp = `${resultPath}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(result, null, 2));
  fs.renameSync(temp, resultPath);
}

async function runSuite(suitePath) {
  const suite = require(suitePath);
  if (typeof suite.run !== 'function') {
    throw new Error(
      `${suitePath} does not export a run(vscode) function (exports: ${Object.keys(suite).join(', ') || 'none'})`,
    );
  }
  const result = await suite.run(vscode);
  if (
    result === null ||
    typeof result !== 'object' ||
    !isStringArray(result.passed) ||
    !isFailureArray(result.failed)
  ) {
    throw new Error(
      `run(vscode) of ${suitePath} returned ${JSON.stringify(result)}, not { passed: string[]; failed: { name; error }[] }`,
    );
  }
  return { passed: result.passed, failed: result.failed };
}

async function runAndReport(suitePath, resultPath) {
  const started = Date.now();
  const about = { suite: suitePath, vscodeVersion: vscode.version, nodeVersion: process.version };
  let outcome;
  try {
    outcome = await runSuite(suitePath);
  } catch (error) {
    outcome = { passed: [], failed: [], crash: describe(error) };
  }
  try {
    writeResult(resultPath, { ...outcome, ...about, durationMs: Date.now() - started });
  } catch (error) {
    console.error(`[integration-runner] could not write ${resultPath}: ${describe(error)}`);
  }
}

exports.activate = function activate() {
  const suitePath = process.env.MCP_INTEGRATION_SUITE;
  const resultPath = process.env.MCP_INTEGRATION_RESULT;
  if (!suitePath || !resultPath) return;
  // Not awaited: activation returns at once and the suite runs in the background, so activating the
  // extension under test (which the suite does) never waits on this activation.
  void runAndReport(path.resolve(suitePath), path.resolve(resultPath));
};

exports.deactivate = function deactivate() {};
