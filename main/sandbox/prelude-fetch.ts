/**
 * Sandbox-side source of `fetch` and `Headers`: the small subset plugins need (url, method,
 * headers, string body → a Response-like object with text()/json()), carried over the host call
 * "fetch". The host decides whether the plugin may reach the host name at all.
 *
 * JavaScript evaluated inside the sandbox; it evaluates to `makeFetch(callHost)`.
 */
export const FETCH_SOURCE = String.raw`
function makeFetch(callHost) {
  "use strict";
  const lower = (name) => String(name).toLowerCase();

  class Headers {
    #map = new Map();
    constructor(init) {
      if (init === undefined || init === null) return;
      if (init instanceof Headers) {
        for (const [k, v] of init.entries()) this.append(k, v);
      } else if (Array.isArray(init)) {
        for (const pair of init) this.append(pair[0], pair[1]);
      } else if (typeof init === "object") {
        for (const k of Object.keys(init)) this.append(k, init[k]);
      } else {
        throw new TypeError("Headers take an object, an array of [name, value] pairs or Headers");
      }
    }
    append(name, value) {
      const key = lower(name);
      const previous = this.#map.get(key);
      this.#map.set(key, previous === undefined ? String(value) : previous + ", " + String(value));
    }
    set(name, value) { this.#map.set(lower(name), String(value)); }
    get(name) { const v = this.#map.get(lower(name)); return v === undefined ? null : v; }
    has(name) { return this.#map.has(lower(name)); }
    delete(name) { this.#map.delete(lower(name)); }
    *entries() { yield* [...this.#map.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)); }
    *keys() { for (const [k] of this.entries()) yield k; }
    *values() { for (const [, v] of this.entries()) yield v; }
    forEach(fn, thisArg) { for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this); }
    [Symbol.iterator]() { return this.entries(); }
  }

  class Response {
    #body;
    #used = false;
    constructor(raw) {
      this.#body = raw.body;
      this.status = raw.status;
      this.statusText = raw.statusText;
      this.ok = raw.status >= 200 && raw.status < 300;
      this.url = raw.url;
      this.redirected = raw.redirected === true;
      this.headers = new Headers(raw.headers);
    }
    get bodyUsed() { return this.#used; }
    async text() {
      if (this.#used) throw new TypeError("Body has already been read");
      this.#used = true;
      return this.#body;
    }
    async json() { return JSON.parse(await this.text()); }
  }

  function urlOf(input) {
    if (typeof input === "string") return input;
    if (input && typeof input.href === "string") return input.href;
    if (input && typeof input.url === "string") return input.url;
    throw new TypeError("fetch takes a URL string");
  }

  async function fetch(input, init) {
    const options = init || {};
    const url = urlOf(input);
    const method = String(options.method || (input && input.method) || "GET").toUpperCase();
    const headers = [...new Headers(options.headers || (input && input.headers)).entries()];
    const body = options.body;
    if (body !== undefined && body !== null && typeof body !== "string") {
      throw new TypeError("fetch body must be a string (JSON.stringify objects first)");
    }
    const raw = await callHost("fetch", [{ url, method, headers, body: body === null ? undefined : body }]);
    return new Response(raw);
  }

  for (const c of [Headers, Response]) {
    Object.freeze(c.prototype);
    Object.freeze(c);
  }
  return { fetch: Object.freeze(fetch), Headers };
}
`;
