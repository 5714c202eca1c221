#!/usr/bin/env node
/**
 * `npm test` after the build: the typecheck and the lint run beside the test suites instead of before them. The
 * suites leave part of the cores idle (a file waiting on a child process, a browser, PostgreSQL), and the checks fill
 * it. The checks' output is held and printed when they end (at once when one fails); the suites' output streams as
 * usual. The exit code is the first failure's: a check's, else the suites'. Arguments go to Vitest.
 */
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Run `command`, its output held (`stream`: passed through); resolves with its exit code and output. */
function run(command, args, { stream = false, env = process.env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      env,
      stdio: stream ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

/** The checks one after another, each reported when it ends; the first failure's exit code, else 0. */
async function checks() {
  let failed = 0;
  for (const script of ['typecheck', 'lint']) {
    const { code, output } = await run(npm, ['run', '--silent', script]);
    if (code !== 0) process.stderr.write(`\nnpm run ${script} failed (exit ${code}):\n${output}\n`);
    else process.stdout.write(`npm run ${script}: passed\n`);
    if (failed === 0) failed = code;
  }
  return failed;
}

const [checked, tested] = await Promise.all([
  checks(),
  run('npx', ['vitest', 'run', ...process.argv.slice(2)], { stream: true, env: { ...process.env, TZ: 'UTC' } }),
]);
process.exitCode = checked !== 0 ? checked : tested.code;
