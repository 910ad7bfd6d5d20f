/**
 * A short description of the device a session was opened from, read from its user agent: "Chrome
 * on Windows", "Safari on iOS", "curl". Null when nothing is recognised. A heuristic for people
 * looking at their session list, never a security decision (user agents are the client's say).
 */

const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bcurl\//, 'curl'],
  [/\bPostmanRuntime\//, 'Postman'],
  [/\bnode-fetch\b|\bundici\b|\bNode\.js\b|^node$/, 'Node.js'],
  [/\bpython-requests\/|\bpython-httpx\/|\baiohttp\//, 'Python'],
  [/\bokhttp\//, 'OkHttp'],
  [/\bGo-http-client\//, 'Go'],
];

const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\biPhone\b|\biPad\b|\biPod\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

/** "Browser on System", either part alone, or null. */
export function describeDevice(userAgent: string | null | undefined): string | null {
  if (typeof userAgent !== 'string' || userAgent.length === 0) return null;
  const ua = userAgent.slice(0, 512);
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? null;
}
