/**
 * Sandbox-side source of how a hook's arguments become the plugin's context object: the JSON
 * text (maybe in pieces), the lazy fields (kept on the host until read) and the deferred ones
 * (their JSON after the arguments', parsed here when read); see lazy-fields.ts.
 *
 * Such a field looks like a plain one: an enumerable getter that gets the field once, then
 * becomes a plain property, so spreading, JSON.stringify and Object.keys behave as if it had been
 * there all along. One accessor pair per field name for every call (the call's record is looked
 * up from the object), so V8 reuses the same map transitions instead of building new ones for
 * fresh closures on each call. A record is reachable only through its own context object (or one
 * made from it with Object.create): a getter called on anything else finds none.
 *
 * Cost, in an isolate the turn's other work pushed out of the CPU caches: each accessor ~1 µs to
 * define, and a read ~8 µs more than parsing the field with the rest (most of it V8 turning the
 * accessor into a data property). So a deferred field a plugin has read once is parsed with the
 * rest in its later calls: a plugin pays for the deferral only of fields it does not read.
 *
 * Evaluates to `makeFields(hostField, separator)`, which returns `argsOf(callId, lazyJson,
 * deferJson, pieces)`.
 */
export const FIELDS_SOURCE = String.raw`
function makeFields(hostField, SEPARATOR) {
  "use strict";
  const { freeze, create, defineProperty, defineProperties, getPrototypeOf } = Object;
  const { parse } = JSON;
  const apply = Reflect.apply;
  // Captured: a plugin that replaces String.prototype's methods changes nothing here.
  const { indexOf, slice } = String.prototype;
  const owners = new WeakMap();
  const accessors = new Map();
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
      for (let i = 0; i < deferredCount; i++) {
        let stop = apply(indexOf, text, [SEPARATOR, start]);
        if (stop < 0) stop = text.length;
        if (shape.eager[i]) target[shape.deferNames[i]] = parse(apply(slice, text, [start, stop]));
        start = stop + 1;
      }
    }
    const record = { callId, text: end === text.length ? undefined : text, at: end + 1, shape };
    owners.set(target, record);
    if (shape.accessors === undefined) shape.accessors = accessorsOf(shape);
    defineProperties(target, shape.accessors);
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
      const deferred = new Map();
      for (let i = 0; i < deferNames.length; i++) deferred.set(deferNames[i], i);
      const eager = deferNames.map(() => false);
      shape = { lazyNames, deferNames, deferred, eager, eagerCount: 0, accessors: undefined };
      byDeferred.set(deferJson, shape);
    }
    return shape;
  }

  function accessorsOf(shape) {
    const all = create(null);
    for (const name of shape.lazyNames) all[name] = accessor(name);
    for (let i = 0; i < shape.deferNames.length; i++) {
      if (!shape.eager[i]) all[shape.deferNames[i]] = accessor(shape.deferNames[i]);
    }
    return freeze(all);
  }

  // A deferred field this plugin read: parsed with the rest from its next call on.
  function learn(shape, at, key) {
    if (shape.eager[at] || key === "__proto__") return;
    shape.eager[at] = true;
    shape.eagerCount++;
    shape.accessors = undefined;
  }

  function fieldText(record, key) {
    const at = record.shape.deferred.get(key);
    if (at === undefined) return hostField(record.callId, key);
    learn(record.shape, at, key);
    // Walked to rather than split: a read cuts out only its own field.
    const text = record.text;
    let start = record.at;
    for (let i = 0; i < at; i++) start = apply(indexOf, text, [SEPARATOR, start]) + 1;
    const end = apply(indexOf, text, [SEPARATOR, start]);
    return apply(slice, text, end < 0 ? [start] : [start, end]);
  }

  function settle(target, key, value) {
    defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  }

  function accessor(key) {
    let pair = accessors.get(key);
    if (pair === undefined) {
      pair = freeze({
        enumerable: true,
        configurable: true,
        get() {
          // The context itself, or an object made from it with Object.create.
          let owner = this;
          while (owner !== null && typeof owner === "object" && !owners.has(owner)) owner = getPrototypeOf(owner);
          if (owner === null || typeof owner !== "object") return undefined;
          const text = fieldText(owners.get(owner), key);
          const value = text === undefined ? undefined : parse(text);
          settle(owner, key, value);
          return value;
        },
        set(value) {
          settle(this, key, value);
        },
      });
      accessors.set(key, pair);
    }
    return pair;
  }

  return argsOf;
}
`;
