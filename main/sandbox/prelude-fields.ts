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
 * Evaluates to `makeFields(hostField, separator)`, which returns `argsOf(callId, shapeNumber,
 * shapeNames, argsJson, pieces)`: the arguments' JSON, the shape of the context's other fields
 * (ContextShapes in lazy-fields.ts), and the deferred fields' text, each after a separator.
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
  const ErrorCtor = Error;
  // Captured: a plugin that replaces String.prototype's methods changes nothing here.
  const { indexOf, slice } = String.prototype;
  // What each shape number stands for (lazy-fields.ts ContextShapes): the host sends a shape's
  // names once, and the number alone after that.
  const shapes = create(null);
  // The arguments of most hooks: nothing but the plugin's empty config beside the context's fields.
  const EMPTY_CONFIG_ARGS = '[{"pluginConfig":{}}]';

  function argsOf(callId, shapeNumber, shapeNames, argsJson, pieces) {
    // The shape first: the host counts it sent once it has gone with a call.
    const shape = shapeNumber === 0 ? undefined
      : shapeNames === "" ? shapes[shapeNumber] : defineShape(shapeNumber, shapeNames);
    const args = argsJson === EMPTY_CONFIG_ARGS ? [{ pluginConfig: {} }] : parse(argsJson);
    if (shapeNumber === 0) return args;
    if (shape === undefined) throw new ErrorCtor("the host sent a context of unknown shape " + shapeNumber);
    const target = args[0];
    // Joined when a field is read: a hook that reads none never pays for it.
    let text;
    if (shape.eagerCount > 0) {
      // Fields this plugin reads: parsed now, as plain properties.
      text = joined(pieces);
      let start = 1;
      for (let i = 0; i <= shape.lastEager; i++) {
        let stop = apply(indexOf, text, [SEPARATOR, start]);
        if (stop < 0) stop = text.length;
        if (shape.eager[i]) settle(target, shape.deferNames[i], parse(apply(slice, text, [start, stop])));
        start = stop + 1;
      }
    }
    const record = create(TRAPS);
    record.callId = callId;
    record.pieces = pieces;
    record.text = text;
    record.shape = shape;
    // Waiting fields the plugin deleted or replaced before reading them.
    record.gone = undefined;
    record.proxy = new ProxyCtor(target, record);
    args[0] = record.proxy;
    return args;
  }

  function joined(pieces) {
    let text = pieces.length === 0 ? "" : pieces[0];
    for (let i = 1; i < pieces.length; i++) text += pieces[i];
    return text;
  }

  // names: the lazy fields' JSON array, SEPARATOR, the deferred fields' (either may be "").
  function defineShape(shapeNumber, names) {
    const cut = apply(indexOf, names, [SEPARATOR]);
    const lazyJson = apply(slice, names, [0, cut]);
    const deferJson = apply(slice, names, [cut + 1]);
    const lazyNames = lazyJson === "" ? [] : parse(lazyJson);
    const deferNames = deferJson === "" ? [] : parse(deferJson);
    // name -> index of its deferred text, or -1 for a field the host keeps.
    const index = new Map();
    const all = [];
    const eager = [];
    for (let i = 0; i < deferNames.length; i++) {
      index.set(deferNames[i], i);
      all[all.length] = deferNames[i];
      eager[i] = false;
    }
    for (let i = 0; i < lazyNames.length; i++) {
      index.set(lazyNames[i], -1);
      all[all.length] = lazyNames[i];
    }
    const shape = { names: all, deferNames, index, eager, eagerCount: 0, lastEager: -1 };
    shapes[shapeNumber] = shape;
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
      if (record.text === undefined) record.text = joined(record.pieces);
      const all = record.text;
      let start = 1;
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
