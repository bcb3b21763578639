/** Route `/output`: filled in by later work. */
export function OutputScreen() {
  return (
    <section className="screen">
      <h1 className="screen-title">Output</h1>
    </section>
  );
}
