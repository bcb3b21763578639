import {
  controlHelp,
  ENGINE_HELPED_CONTROLS,
  INERT_CONTROLS,
  TEXT_BUNDLES,
} from '@tessera/contract';
import type { EngineHelpedControl, PreviewEngine } from '@tessera/contract';
import { useTexts } from '../../lib/i18n';

/** Whether the control's meaning depends on the engine, so it has a help line. */
export function isHelpedControl(name: string): name is EngineHelpedControl {
  return (ENGINE_HELPED_CONTROLS as readonly string[]).includes(name);
}

/** Whether the control does nothing on the engine (issue 27); false while it is not known. */
export function isInert(engine: PreviewEngine | undefined, control: EngineHelpedControl): boolean {
  return engine !== undefined && INERT_CONTROLS[engine].includes(control);
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
  const texts = useTexts(TEXT_BUNDLES.engineHelp);
  if (engine === undefined) return null;
  const help = controlHelp(engine, control, texts);
  return (
    <p id={id} className={`generate-hint generate-help${help.inert ? ' is-inert' : ''}`}>
      {help.inert && (
        <>
          <strong className="generate-inert">{texts.inert}</strong>{' '}
        </>
      )}
      {help.text}
    </p>
  );
}
