// `node-pty` is installed as an alias of @lydell/node-pty (the same API with prebuilt binaries);
// its typings declare the module under the package's own name.
declare module 'node-pty' {
  export * from '@lydell/node-pty';
}
