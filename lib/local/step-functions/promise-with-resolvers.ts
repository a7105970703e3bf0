/**
 * aws-local-stepfunctions 3 calls `Promise.withResolvers` (Node 22+) in every Task state; on Node 20
 * each Task would fail with a TypeError. Installed only where it is missing.
 */
type WithResolvers = <T>() => { promise: Promise<T>; resolve: (value: T) => void; reject: (reason?: unknown) => void };

const promiseConstructor = Promise as unknown as { withResolvers?: WithResolvers };

if (typeof promiseConstructor.withResolvers !== 'function') {
  promiseConstructor.withResolvers = <T>() => {
    let resolve!: (value: T) => void;
    let reject!: (reason?: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

export {};
