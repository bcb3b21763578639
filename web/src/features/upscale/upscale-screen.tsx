/** Route `/upscale`: filled in by later work. */
export function UpscaleScreen() {
  return (
    <section className="screen">
      <h1 className="screen-title">Upscale</h1>
    </section>
  );
}
