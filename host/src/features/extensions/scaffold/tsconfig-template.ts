// tsconfig.json of a scaffold: standalone (it lives outside the svc checkout), as strict as the SDK
// it type-checks through the link.
export function tsconfigTemplate(): string {
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2023'],
      module: 'ESNext',
      moduleResolution: 'Bundler',
      strict: true,
      noUncheckedIndexedAccess: true,
      noImplicitOverride: true,
      isolatedModules: true,
      esModuleInterop: true,
      skipLibCheck: true,
      types: ['node'],
      noEmit: true,
    },
    include: ['src', 'test'],
  };
  return `${JSON.stringify(tsconfig, null, 2)}\n`;
}
