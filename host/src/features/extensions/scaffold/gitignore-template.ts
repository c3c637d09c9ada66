// .gitignore of a scaffold: installed and built files are not sources.
export function gitignoreTemplate(): string {
  return 'node_modules/\ndist/\n';
}
