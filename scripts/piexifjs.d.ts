/** The part of piexifjs (no published types) the photo fixtures use. */
declare module 'piexifjs' {
  type Rational = [number, number];
  type IfdValue = string | number | number[] | Rational | Rational[];
  export interface ExifDict {
    '0th'?: Record<number, IfdValue>;
    Exif?: Record<number, IfdValue>;
    GPS?: Record<number, IfdValue>;
  }
  export const GPSIFD: Record<string, number>;
  export const ExifIFD: Record<string, number>;
  export const ImageIFD: Record<string, number>;
  export const TAGS: Record<string, Record<number, { name: string; type: string }>>;
  export function dump(exif: ExifDict): string;
  export function insert(exifBytes: string, jpegBinary: string): string;
  export function remove(jpegBinary: string): string;
  const piexif: {
    GPSIFD: typeof GPSIFD;
    ExifIFD: typeof ExifIFD;
    ImageIFD: typeof ImageIFD;
    TAGS: typeof TAGS;
    dump: typeof dump;
    insert: typeof insert;
    remove: typeof remove;
  };
  export default piexif;
}
