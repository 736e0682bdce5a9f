import { spawn } from 'node:child_process';

/**
 * Opens a URL the way the person asked: the command in BROWSER with the URL as its one argument (no shell, so
 * nothing in the URL is interpreted), else the platform's opener. Resolves once the command started; a
 * failure to start is reported through the rejection, the caller has printed the URL anyway.
 */
export function openBrowser(
  url: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<void> {
  const [command, args] = env.BROWSER
    ? [env.BROWSER, [url]]
    : platform === 'darwin'
      ? ['open', [url]]
      : platform === 'win32'
        ? ['rundll32', ['url.dll,FileProtocolHandler', url]]
        : ['xdg-open', [url]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore', shell: false, detached: platform !== 'win32' });
    child.once('error', (error) => reject(new Error(`could not run ${command}: ${error.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
