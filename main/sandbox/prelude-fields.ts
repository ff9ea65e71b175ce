/**
 * Sandbox-side source of how a hook's arguments become the plugin's context object: the JSON
 * text (maybe in pieces), the lazy fields (kept on the host until read) and the deferred ones
 * (their JSON after the arguments', parsed here when read); see lazy-fields.ts.
 *
 * The context is a Proxy over the parsed arguments: a field not parsed yet is parsed (or fetched
 * from the host) the first time anything looks at it — a read, `in`, a property descriptor,
 * spreading, JSON.stringify, Object.keys — and is from then on a plain property of the target.
 * So to plugin code every field looks as if it had been there all along, and a call costs the
 * same one Proxy however many fields wait: defining an accessor per waiting field cost ~1–2 µs
 * each in an isolate the turn's other work had pushed out of the CPU caches, and parsing every
 * field most hooks never read was the larger part of a hook's entry.
 *
 * A deferred field a plugin has read once is parsed ahead in its later calls (it will likely be
 * read again). The proxy's handler is the call's own record, whose prototype holds the traps: one
 * small object per call, and nothing of one call reachable from another's context.
 *
 * Evaluates to `makeFields(hostField, separator)`, which returns `argsOf(callId, lazyJson,
 * deferJson, pieces)`.
 */
export const FIELDS_SOURCE = String.raw`
function makeFields(hostField, SEPARATOR) {
  "use strict";
  const { freeze, create } = Object;
  const SetCtor = Set;
  const { parse } = JSON;
  const { apply, get, has, ownKeys, getOwnPropertyDescriptor, defineProperty, deleteProperty, preventExtensions, set } = Reflect;
  const hasOwn = Object.hasOwn;
  const ProxyCtor = Proxy;
  // Captured: a plugin that replaces String.prototype's methods changes nothing here.
  const { indexOf, slice } = String.prototype;
  // The same few sets of field names come with every call: parsed once each.
  const shapes = new Map();

  function argsOf(callId, lazyJson, deferJson, pieces) {
    let text = pieces[0];
    for (let i = 1; i < pieces.length; i++) text += pieces[i];
    if (!lazyJson && !deferJson) return parse(text);
    const shape = shapeOf(lazyJson || "", deferJson || "");
    const deferredCount = shape.deferNames.length;
    const end = deferredCount === 0 ? text.length : apply(indexOf, text, [SEPARATOR]);
    const args = parse(end === text.length ? text : apply(slice, text, [0, end]));
    const target = args[0];
    if (shape.eagerCount > 0) {
      // Fields this plugin reads: parsed now, as plain properties.
      let start = end + 1;
      for (let i = 0; i <= shape.lastEager; i++) {
        let stop = apply(indexOf, text, [SEPARATOR, start]);
        if (stop < 0) stop = text.length;
        if (shape.eager[i]) settle(target, shape.deferNames[i], parse(apply(slice, text, [start, stop])));
        start = stop + 1;
      }
    }
    const record = create(TRAPS);
    record.callId = callId;
    record.text = end === text.length ? undefined : text;
    record.at = end + 1;
    record.shape = shape;
    // Waiting fields the plugin deleted or replaced before reading them.
    record.gone = undefined;
    record.proxy = new ProxyCtor(target, record);
    args[0] = record.proxy;
    return args;
  }

  function shapeOf(lazyJson, deferJson) {
    let byDeferred = shapes.get(lazyJson);
    if (byDeferred === undefined) {
      if (shapes.size >= 32) shapes.clear();
      byDeferred = new Map();
      shapes.set(lazyJson, byDeferred);
    }
    let shape = byDeferred.get(deferJson);
    if (shape === undefined) {
      if (byDeferred.size >= 32) byDeferred.clear();
      const lazyNames = lazyJson === "" ? [] : parse(lazyJson);
      const deferNames = deferJson === "" ? [] : parse(deferJson);
      // name -> index of its deferred text, or -1 for a field the host keeps.
      const index = new Map();
      const names = [];
      const eager = [];
      for (let i = 0; i < deferNames.length; i++) {
        index.set(deferNames[i], i);
        names[names.length] = deferNames[i];
        eager[i] = false;
      }
      for (let i = 0; i < lazyNames.length; i++) {
        index.set(lazyNames[i], -1);
        names[names.length] = lazyNames[i];
      }
      shape = { names, deferNames, index, eager, eagerCount: 0, lastEager: -1 };
      byDeferred.set(deferJson, shape);
    }
    return shape;
  }

  // A field of this call not parsed (nor fetched) yet, and not deleted or replaced since.
  function waiting(record, target, key) {
    return typeof key === "string" && record.shape.index.has(key) && !hasOwn(target, key) &&
      (record.gone === undefined || !record.gone.has(key));
  }

  // Parses (or fetches) a waiting field into the target, as a plain property.
  function fill(record, target, key) {
    const at = record.shape.index.get(key);
    let text;
    if (at < 0) text = hostField(record.callId, key);
    else {
      learn(record.shape, at, key);
      // Walked to rather than split: a read cuts out only its own field.
      const all = record.text;
      let start = record.at;
      for (let i = 0; i < at; i++) start = apply(indexOf, all, [SEPARATOR, start]) + 1;
      const stop = apply(indexOf, all, [SEPARATOR, start]);
      text = apply(slice, all, stop < 0 ? [start] : [start, stop]);
    }
    const value = text === undefined ? undefined : parse(text);
    settle(target, key, value);
    return value;
  }

  // A deferred field this plugin read: parsed with the rest from its next call on.
  function learn(shape, at, key) {
    if (shape.eager[at] || key === "__proto__") return;
    shape.eager[at] = true;
    shape.eagerCount++;
    if (at > shape.lastEager) shape.lastEager = at;
  }

  function forget(record, key) {
    if (record.gone === undefined) record.gone = new SetCtor();
    record.gone.add(key);
  }

  // Whatever object it is called on, the accessor reads or writes this context's field only.
  function unfetched(proxy, key) {
    return {
      enumerable: true,
      configurable: true,
      get() {
        return proxy[key];
      },
      set(value) {
        proxy[key] = value;
      },
    };
  }

  function settle(target, key, value) {
    defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  }

  // The handler's traps; "this" is the call's record.
  const TRAPS = freeze({
    __proto__: null,
    get(target, key, receiver) {
      if (waiting(this, target, key)) return fill(this, target, key);
      return get(target, key, receiver);
    },
    has(target, key) {
      return waiting(this, target, key) || has(target, key);
    },
    // The context's fields in one order whatever the plugin has read, then anything it added.
    ownKeys(target) {
      const keys = [];
      const { names, index } = this.shape;
      for (let i = 0; i < names.length; i++) {
        if (hasOwn(target, names[i]) || waiting(this, target, names[i])) keys[keys.length] = names[i];
      }
      const own = ownKeys(target);
      for (let i = 0; i < own.length; i++) {
        if (typeof own[i] !== "string" || !index.has(own[i])) keys[keys.length] = own[i];
      }
      return keys;
    },
    getOwnPropertyDescriptor(target, key) {
      if (waiting(this, target, key)) {
        // A field the host keeps is described without fetching it: Object.keys and for-in ask
        // every field's descriptor, and the turns or the system prompt may be long.
        if (this.shape.index.get(key) < 0) return unfetched(this.proxy, key);
        fill(this, target, key);
      }
      return getOwnPropertyDescriptor(target, key);
    },
    defineProperty(target, key, descriptor) {
      if (waiting(this, target, key)) forget(this, key);
      return defineProperty(target, key, descriptor);
    },
    set(target, key, value, receiver) {
      // Set on this context (not on an object made from it): the field is replaced unread.
      if (receiver === this.proxy && waiting(this, target, key)) forget(this, key);
      return set(target, key, value, receiver);
    },
    deleteProperty(target, key) {
      const unread = waiting(this, target, key);
      // Deleted, read or not: it never comes back from the call's text.
      if (typeof key === "string" && this.shape.index.has(key)) forget(this, key);
      return unread || deleteProperty(target, key);
    },
    preventExtensions(target) {
      // A frozen or sealed context holds every field: a proxy may not list keys its target lacks.
      const names = this.shape.names;
      for (let i = 0; i < names.length; i++) if (waiting(this, target, names[i])) fill(this, target, names[i]);
      return preventExtensions(target);
    },
  });

  return argsOf;
}
`;
