import { NO_EXIF } from '../../upload/photo-metadata';
import { editorOf, exifTimesDisagree, forensicSignals } from './photo-forensics';

const CAMERA = { ...NO_EXIF, make: 'Apple', model: 'iPhone 15' };
const HERE = { latitude: 31.2304, longitude: 121.4737 };
const north = (m: number) => ({ latitude: HERE.latitude + m / 111_195, longitude: HERE.longitude });
const codes = (s: { code: string }[]) => s.map((x) => x.code);

describe('editorOf', () => {
  it('names editors, not cameras or phone systems', () => {
    for (const [tag, name] of [
      ['Adobe Photoshop 25.0 (Windows)', 'Adobe Photoshop'],
      ['Adobe Photoshop Lightroom Classic 13.0', 'Adobe Photoshop'],
      ['Lightroom Mobile', 'Adobe Lightroom'],
      ['GIMP 2.10.34', 'GIMP'],
      ['Snapseed 2.0', 'Snapseed'],
      ['美图秀秀', 'Meitu'],
      ['MTXX (Meitu)', 'Meitu'],
      ['PicsArt', 'PicsArt'],
    ]) {
      expect(editorOf(tag)).toBe(name);
    }
    for (const tag of [
      'iOS 17.1',
      'HDR+ 1.0.540104767zd',
      'Ver.1.00',
      'G998BXXU5CVDD',
      'MediaTek Camera Application',
      null,
    ]) {
      expect(editorOf(tag)).toBeNull();
    }
  });
});

describe('exifTimesDisagree', () => {
  it('with a zone: more than 10 minutes apart disagrees', () => {
    const base = { ...CAMERA, original: '2030-01-01T10:00:00', offset: '+08:00' };
    expect(exifTimesDisagree({ ...base, gps_time: '2030-01-01T02:09:00.000Z' })).toBeNull();
    expect(exifTimesDisagree({ ...base, gps_time: '2030-01-01T02:11:00.000Z' })).toContain(
      '11 minutes apart',
    );
  });

  it('without a zone: a whole time zone (quarter hours, at most 14 h) plus a little lag agrees; else disagrees', () => {
    const base = { ...CAMERA, original: '2030-01-01T10:00:00' };
    expect(exifTimesDisagree({ ...base, gps_time: '2030-01-01T02:00:00.000Z' })).toBeNull(); // UTC+8
    expect(exifTimesDisagree({ ...base, gps_time: '2030-01-01T04:32:00.000Z' })).toBeNull(); // UTC+5:30, 2 min lag
    expect(exifTimesDisagree({ ...base, gps_time: '2030-01-01T02:37:00.000Z' })).toContain(
      'no time zone explains',
    );
    expect(exifTimesDisagree({ ...base, gps_time: '2029-12-31T18:00:00.000Z' })).toContain('no time zone'); // 16 h
  });

  it('nothing to compare when either time is missing', () => {
    expect(exifTimesDisagree({ ...CAMERA, original: '2030-01-01T10:00:00' })).toBeNull();
    expect(exifTimesDisagree({ ...CAMERA, gps_time: '2030-01-01T02:00:00.000Z' })).toBeNull();
  });
});

describe('forensicSignals', () => {
  it('a camera’s photo without edits gives none', () => {
    expect(forensicSignals(CAMERA, north(0), null)).toEqual([]);
  });

  it('missing make or model is no_camera_metadata', () => {
    expect(codes(forensicSignals(NO_EXIF, null, null))).toEqual(['no_camera_metadata']);
    expect(codes(forensicSignals({ ...CAMERA, model: null }, null, null))).toEqual(['no_camera_metadata']);
  });

  it('an editor and disagreeing times are one exif_edited each', () => {
    const edited = {
      ...CAMERA,
      software: 'Snapseed 2.0',
      original: '2030-01-01T10:00:00',
      offset: '+08:00',
      gps_time: '2030-01-01T05:00:00.000Z',
    };
    expect(codes(forensicSignals(edited, null, null))).toEqual(['exif_edited', 'exif_edited']);
  });

  it('EXIF GPS further than max(accuracy, 100 m) from the device fix is exif_device_disagree with the distance', () => {
    const fix = (m: number, acc: number) => ({ ...north(m), accuracy_m: acc, captured_at: new Date() });
    expect(forensicSignals(CAMERA, HERE, fix(100, 20))).toEqual([]);
    expect(forensicSignals(CAMERA, HERE, fix(101, 20))).toEqual([
      expect.objectContaining({ code: 'exif_device_disagree', distance_meters: 101 }),
    ]);
    expect(forensicSignals(CAMERA, HERE, fix(140, 150))).toEqual([]);
    expect(forensicSignals(CAMERA, null, fix(5000, 20))).toEqual([]); // no EXIF GPS: nothing to compare
  });
});
