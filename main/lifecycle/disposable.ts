/** Something registered that can be taken back. Disposing twice is harmless. */
export interface Disposable {
  dispose(): void;
}

/** Wraps `release` so that it runs at most once, however often dispose() is called. */
export function disposable(release: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      release();
    },
  };
}
