import { TEXT_BUNDLES } from '@tessera/contract';
import type { LdImage } from '@tessera/contract';
import { useTexts } from '../../lib/i18n';
import { Dialog } from '../../components/gallery/dialog';
import { TagPicker } from './tag-picker';
import { usePendingLinks, useTagCommands } from './use-tag-commands';

/**
 * The tag-assign popover of a gallery image (checklist D7, T8): ticking assigns, unticking
 * unassigns, and the image's tag list changes locally once the server has agreed.
 */
export function TagAssignDialog({ image, onClose }: { image: LdImage; onClose: () => void }) {
  const texts = useTexts(TEXT_BUNDLES.tags);
  const commands = useTagCommands();
  const pending = usePendingLinks(image.filename);
  return (
    <Dialog title={texts.tagsOf(image.filename)} onClose={onClose} className="tag-assign-dialog">
      <TagPicker
        label={texts.tagsOf(image.filename)}
        selectedIds={image.tags}
        pendingIds={pending}
        onToggle={(tagId, selected) =>
          // A failure is logged by the command; the box then shows the image's tags as they are.
          (selected ? commands.assign : commands.unassign)(tagId, image.filename)
        }
      />
      <div className="dialog-actions">
        <button type="button" className="button button-primary" onClick={onClose}>
          {texts.done}
        </button>
      </div>
    </Dialog>
  );
}
