/** Route `/input`: filled in by later work. */
export function InputScreen() {
  return (
    <section className="screen">
      <h1 className="screen-title">Input</h1>
    </section>
  );
}
