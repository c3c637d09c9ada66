export function NotificationsPage() {
  return <section><h1>Notifications</h1></section>;
}
