/** The check that our `--disable-features`, the one Chromium honours, keeps every feature the lists before it turn off. */
import { describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, missingDisabledFeatures } from './chromium';

describe('the Chromium suites’ --disable-features', () => {
  it('names what a list before ours turns off and ours leaves on', () => {
    const args = ['--disable-features=A,B', '--headless', '--disable-features=C', '--disable-features=A,C'];
    expect(missingDisabledFeatures(args)).toEqual(['B']);
    expect(missingDisabledFeatures(['--disable-features=A'])).toEqual([]);
    expect(missingDisabledFeatures([])).toEqual([]);
  });

  it('keeps, after Playwright’s own list, the features Playwright 1.65 disables', () => {
    const playwright =
      '--disable-features=AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,' +
      'HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding,ThirdPartyStoragePartitioning,' +
      'AvoidCorsURLLoaderRestartOnRedirect,TcpPortRandomizationWin,OptimizationHints,NetworkTimeServiceQuerying,' +
      'AimEnabled,PreconnectToSearch,msForceBrowserSignIn,msEdgeUpdateLaunchServicesPreferredVersion';
    expect(missingDisabledFeatures([playwright, ...CHROMIUM_ARGS])).toEqual([]);
  });
});
