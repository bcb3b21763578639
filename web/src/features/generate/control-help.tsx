import { CONTROL_HELP, ENGINE_HELPED_CONTROLS, INERT_CONTROL_TEXT } from '@tessera/contract';
import type { EngineHelpedControl, PreviewEngine } from '@tessera/contract';

/** Whether the control's meaning depends on the engine, so it has a help line. */
export function isHelpedControl(name: string): name is EngineHelpedControl {
  return (ENGINE_HELPED_CONTROLS as readonly string[]).includes(name);
}

/** A control's help on the engine (issue 27), or none while the engine is not known. */
export function controlHelp(engine: PreviewEngine | undefined, control: EngineHelpedControl) {
  return engine === undefined ? undefined : CONTROL_HELP[engine][control];
}

/**
 * What a control does on this server's engine, under it; a control that does nothing there says
 * so first. The control names it in its aria-describedby (`id`).
 */
export function ControlHelpLine({
  id,
  engine,
  control,
}: {
  id: string;
  engine: PreviewEngine | undefined;
  control: EngineHelpedControl;
}) {
  const help = controlHelp(engine, control);
  if (!help) return null;
  return (
    <p id={id} className={`generate-hint generate-help${help.inert ? ' is-inert' : ''}`}>
      {help.inert && (
        <>
          <strong className="generate-inert">{INERT_CONTROL_TEXT}</strong>{' '}
        </>
      )}
      {help.text}
    </p>
  );
}
