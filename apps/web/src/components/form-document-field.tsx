import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';
import { FileUpload, StaleFilesNote, type UploadedFile } from './file-upload';

/**
 * An optional document in a react-hook-form form whose schema has `file` (the upload's url) and
 * `fileName`: both are set together from one upload.
 */
export function FormDocumentField<T extends FieldValues & { file?: string; fileName?: string }>({
  control,
  label,
  hint,
  onBusyChange,
  staleFiles = [],
}: {
  control: Control<T>;
  label: string;
  hint?: string;
  onBusyChange: (busy: boolean) => void;
  /** The drafted document dropped as too old to send (useFormDraft's onStaleFile), said under the field. */
  staleFiles?: readonly string[];
}) {
  const file = useController({ control, name: 'file' as Path<T> });
  const fileName = useController({ control, name: 'fileName' as Path<T> });
  return (
    <>
      <StaleFilesNote names={staleFiles} />
      <FileUpload
        label={label}
        kind="document"
        value={file.field.value ? { url: file.field.value, fileName: fileName.field.value ?? 'Document' } : null}
        onChange={(f: UploadedFile | null) => {
          fileName.field.onChange(f?.fileName);
          file.field.onChange(f?.url);
        }}
        onBusyChange={onBusyChange}
        hint={hint}
        error={file.fieldState.error?.message}
      />
    </>
  );
}
