/** Route `/generate`: filled in by later work. */
export function GenerateScreen() {
  return (
    <section className="screen">
      <h1 className="screen-title">Generate</h1>
    </section>
  );
}
