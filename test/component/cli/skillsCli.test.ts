/** `skills` and `skill <uri>` of the CLI (dist/cli.js, built by `npm run build`) against the skills fixture server. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { REPO_ROOT } from '../../support/testSupport';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'skills', 'skillsServer.mjs');
const PDF = 'skill://pdf-processing/SKILL.md';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], flags: string[] = []): Promise<Run> {
  const stdio = [process.execPath, SERVER, ...flags].map((word) => JSON.stringify(word)).join(' ');
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, ...args, '--stdio', stdio],
      { timeout: 30_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number')
          return reject(new Error(`the CLI did not exit normally (${error.message}); stderr:\n${stderr}`));
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}

describe('CLI: skills', () => {
  test('skills lists every skill with its frontmatter and files', async () => {
    const run = await cli(['skills'], ['--page-size=1']);
    assert.equal(run.code, 0, run.stderr);
    const output = JSON.parse(run.stdout) as {
      server: string;
      skills: { uri: string; name: string; files: { uri: string; digest: string }[] }[];
    };
    assert.deepEqual(
      output.skills.map((skill) => skill.name),
      ['pdf-processing', 'code-review'],
    );
    assert.equal(output.skills[0].files.length, 4);
    assert.match(output.skills[0].files[0].digest, /^sha256:[0-9a-f]{64}$/);
  });

  test('skill <uri> prints the verified SKILL.md', async () => {
    const run = await cli(['skill', PDF]);
    assert.equal(run.code, 0, run.stderr);
    const output = JSON.parse(run.stdout) as { verified: boolean; text: string; frontmatter: { name: string } };
    assert.equal(output.verified, true);
    assert.equal(output.frontmatter.name, 'pdf-processing');
    assert.match(output.text, /^---\nname: pdf-processing/);
  });

  test('skill <uri> <path> prints one verified file of the skill', async () => {
    const run = await cli(['skill', PDF, 'references/FORMS.md']);
    assert.equal(run.code, 0, run.stderr);
    assert.match((JSON.parse(run.stdout) as { text: string }).text, /Version 1: fill every field/);
  });

  for (const mode of ['digest', 'size', 'frontmatter']) {
    test(`skill <uri> exits 1 on a tampered SKILL.md (${mode}), naming the server and the file, printing none of it`, async () => {
      const run = await cli(['skill', PDF], [`--tamper=${mode}`]);
      assert.equal(run.code, 1);
      assert.match(run.stderr, /refused skill:\/\/pdf-processing\/SKILL.md of skill "pdf-processing"/);
      const output = JSON.parse(run.stdout) as { refused: { reason: string }; text?: string };
      assert.equal(output.refused.reason, mode);
      assert.equal(output.text, undefined);
      // The refusal may quote the differing field; the skill's content (its body) is not printed.
      assert.doesNotMatch(run.stdout, /# PDF processing|Evil body|extra bytes/, 'the refused content is not printed');
    });
  }

  test('skills on a server without the extension: exit 1 with the reason', async () => {
    const run = await cli(['skills'], ['--no-extension']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /does not offer the io.modelcontextprotocol\/skills extension/);
  });
});
