/** Where the Chromium suites find Debian's Chromium, and the flags every one of them starts it with. */
import { existsSync, readFileSync } from 'node:fs';

/**
 * The browser the suites drive: `AGENTDASH_CHROMIUM` when set; else Debian's headless shell when it is installed
 * (`apt-get install chromium-headless-shell`: the same Blink as Debian's Chromium, of the same source package, without
 * the browser's own windows and address bar, as Playwright's own headless runs use); else Debian's Chromium. The
 * suites pass in both; the shell spends less CPU per page.
 */
export const CHROMIUM =
  process.env.AGENTDASH_CHROMIUM ??
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path)) ??
  '/usr/bin/chromium';

/**
 * The features Playwright turns off (its own `--disable-features` list, playwright-core 1.65). Chromium reads only the
 * last `--disable-features` it is given, and Playwright puts ours after its own, so ours must hold its list too;
 * `missingDisabledFeatures` checks, against a running browser, that nothing of its list is lost after an upgrade.
 */
const PLAYWRIGHT_DISABLED = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
] as const;

/**
 * What headless Chromium draws that no test looks at: every browser context (each test page has its own) starts a
 * renderer for the address bar's suggestion popup, built as a WebUI page (`chrome://omnibox-popup.top-chrome/`),
 * which cost a large share of Chromium's CPU over the Chromium suites.
 */
const UNSEEN = ['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup', 'PreloadTopChromeWebUI'] as const;

/**
 * What Chromium starts ahead for a navigation that never uses it: after each navigation it keeps a spare renderer
 * process ready for the next one, but a spare renderer serves only its own browser context, and each test page's
 * context is closed after a few hash changes within one document, so most spares were started, initialised and
 * thrown away. Without it, a context's first navigation starts its renderer then, which it does anyway.
 */
const UNUSED = ['SpareRendererForSitePerProcess'] as const;

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${[...PLAYWRIGHT_DISABLED, ...UNSEEN, ...UNUSED].join(',')}`,
] as const;

/** A running process's command line, split into its arguments; empty where `/proc` cannot tell (not Linux). */
export function commandLineOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');
  } catch {
    return [];
  }
}

/**
 * The features of every `--disable-features` but the last on a Chromium command line (Playwright's own list, and any
 * a wrapper script such as Debian's puts first) that the last one, which Chromium honours (ours), leaves out.
 */
export function missingDisabledFeatures(args: readonly string[]): string[] {
  const lists = args
    .filter((a) => a.startsWith('--disable-features='))
    .map((a) => a.slice('--disable-features='.length).split(','));
  const honoured = new Set(lists.at(-1) ?? []);
  return [...new Set(lists.slice(0, -1).flat())].filter((feature) => feature !== '' && !honoured.has(feature));
}
