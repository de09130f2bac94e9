// A remembered device's name for people: "Chrome on Linux" rather than the
// User-Agent string the server kept when the device was remembered. A small
// reading of the common browsers and systems, no library: the order matters,
// since Edge, Opera and Samsung Internet also say "Chrome" and "Safari", and
// Chrome says "Safari". A label this does not recognise is shown as it is
// (it may be a name already); an empty one is "Unknown browser".

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\bYaBrowser\//, 'Yandex Browser'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChromium\//, 'Chromium'],
  [/\bChrome\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\/|\bMobile\/\w+ Safari\//, 'Safari'],
  [/\bMSIE |\bTrident\//, 'Internet Explorer'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMacintosh\b|\bMac OS X\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

function first(list: [RegExp, string][], ua: string): string {
  for (const [re, name] of list) if (re.test(ua)) return name;
  return '';
}

/** The name shown for a remembered device's label (a User-Agent, most often). */
export function deviceName(label: string): string {
  const ua = label.trim();
  if (!ua) return 'Unknown browser';
  // Only a User-Agent is read: "Mozilla/5.0 (…) …" or "Name/1.0 …".
  if (!/^[\w.-]+\/\S+/.test(ua)) return ua;
  const browser = first(BROWSERS, ua);
  const system = first(SYSTEMS, ua);
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `A browser on ${system}`;
  return ua;
}
