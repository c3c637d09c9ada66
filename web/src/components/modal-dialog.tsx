import { useEffect, useRef, type ReactNode } from 'react';

/** A native modal dialog: focus moves into it, Escape closes it, the page behind is inert. */
export function ModalDialog({ title, onClose, children, wide }: { title: string; onClose(): void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog ref={ref} className={wide ? 'dialog wide' : 'dialog'} aria-label={title} onClose={onClose} onCancel={onClose}>
      <header className="dialog-header">
        <h2>{title}</h2>
        <button type="button" className="ghost" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      {children}
    </dialog>
  );
}
