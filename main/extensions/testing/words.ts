/**
 * Deterministic words for the generated ecosystem (ecosystem.ts): picks and prose from the
 * vocabulary by a seeded generator, and unique names.
 */
import { DOMAINS, OBJECTS, QUALITIES, VERBS } from "./vocabulary.ts";

export class Words {
  private readonly rnd: () => number;
  constructor(rnd: () => number) {
    this.rnd = rnd;
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.rnd() * list.length)]!;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.rnd() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.rnd() < p;
  }
  /** Distinct picks. */
  some<T>(list: readonly T[], n: number): T[] {
    const out = new Set<T>();
    while (out.size < Math.min(n, list.length)) out.add(this.pick(list));
    return [...out];
  }
  /** Sentences about `domain` until the text is at least `min` characters, cut near `max`. */
  prose(domain: string, min: number, max: number): string {
    const parts: string[] = [];
    let text = "";
    while (text.length < min) {
      const [a, b] = this.some(OBJECTS, 2);
      const sentence = this.pick([
        `${cap(this.pick(VERBS))} ${a} and ${b} in ${domain} projects`,
        `Keeps ${domain} ${a} ${this.pick(QUALITIES)} while you ${this.pick(VERBS)} ${b}`,
        `Knows how to ${this.pick(VERBS)} ${a} with ${this.pick(DOMAINS)} and ${domain}`,
        `Covers ${this.pick(QUALITIES)} ${a}, ${this.pick(QUALITIES)} ${b} and their ${this.pick(OBJECTS)}`,
      ]);
      parts.push(sentence);
      text = parts.join(". ") + ".";
    }
    return text.length > max ? text.slice(0, max - 1).replace(/\s+\S*$/, "") + "." : text;
  }
}

export const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
/** A YAML scalar in double quotes (descriptions hold colons and commas). */
export const q = (s: string): string => JSON.stringify(s);

/** Unique names: a second "x" becomes "x-2". */
export class Names {
  private readonly taken = new Map<string, number>();
  take(base: string): string {
    const n = (this.taken.get(base) ?? 0) + 1;
    this.taken.set(base, n);
    return n === 1 ? base : `${base}-${n}`;
  }
}
