import { useCallback, useId, type ReactNode } from 'react';
import { Button } from './button.tsx';
import { Dialog } from './dialog.tsx';
import { Spinner } from './spinner.tsx';

/**
 * A dialog holding one form (`formId`): its footer has a cancel button and the form's submit
 * button, disabled with a spinner while `pending`. `open` false: nothing is rendered.
 */
export function FormDialog({
  open,
  onClose,
  formId,
  pending,
  title,
  description,
  closeLabel,
  cancelLabel,
  submitLabel,
  children,
}: {
  open: boolean;
  onClose: () => void;
  formId: string;
  pending: boolean;
  title: string;
  description?: string;
  closeLabel: string;
  cancelLabel: string;
  submitLabel: string;
  children: ReactNode;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      {...(description !== undefined && { description })}
      closeLabel={closeLabel}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {cancelLabel}
          </Button>
          <Button type="submit" form={formId} disabled={pending}>
            {pending && <Spinner className="h-4 w-4" />}
            {submitLabel}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}

/**
 * The wiring every form dialog over one mutation shares: the form's id, and a stable close that
 * first clears the mutation, so a failed save does not greet the next opening (the Dialog needs a
 * stable onClose).
 */
export function useFormDialog(mutation: { reset: () => void }, onClose: () => void) {
  const formId = useId();
  const { reset } = mutation;
  const close = useCallback(() => {
    reset();
    onClose();
  }, [reset, onClose]);
  return { formId, close };
}
