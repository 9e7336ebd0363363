/** Sign-in links work once, within this long. */
export const LOGIN_TTL_MS = 15 * 60_000;

export const loginLink = (baseUrl: string, token: string) => `${baseUrl.replace(/\/+$/, "")}/login/${token}`;
