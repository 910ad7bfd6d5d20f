/**
 * The real browser of the suites that test pages a person sees: Debian's chromium, driven by
 * playwright-core over CDP, headless, on loopback only. Nothing is skipped when it cannot start:
 * the test fails, as the brief asks of every browser test.
 */
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

/** Debian's chromium (the `chromium` package). */
export const CHROMIUM = '/usr/bin/chromium';

export interface LaunchOptions {
  /**
   * A host name the pages use that must resolve to 127.0.0.1 (`localhost` for a secure-context
   * origin, or a made-up name); every other name still resolves as usual unless `only`.
   */
  readonly host?: string;
  /** Every other host name fails to resolve: the page can reach nothing but loopback. */
  readonly only?: boolean;
}

export function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  const rules = options.host
    ? [
        `--host-resolver-rules=MAP ${options.host} 127.0.0.1${options.only ? ', MAP * ~NOTFOUND' : ''}`,
      ]
    : [];
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: 60_000,
    args: [...rules, '--no-sandbox'],
  });
}

/**
 * A CTAP2 platform authenticator in the page's browser (CDP WebAuthn domain): resident keys, user
 * verification, presence answered at once, so `navigator.credentials` works with no person there.
 */
export async function addVirtualAuthenticator(
  context: BrowserContext,
  page: Page,
): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}
