export function HarnessPage() {
  return <section><h1>Notification center</h1></section>;
}
