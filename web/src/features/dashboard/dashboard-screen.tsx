/** Route `/dashboard`: filled in by later work. */
export function DashboardScreen() {
  return (
    <section className="screen">
      <h1 className="screen-title">Dashboard</h1>
    </section>
  );
}
