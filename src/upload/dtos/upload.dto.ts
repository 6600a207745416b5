import { ApiProperty } from '@nestjs/swagger';
import { ACCEPTED_MIME_TYPES } from '../media-type';
import { UPLOAD_CATEGORIES } from '../storage/file-storage';

export class GpsView {
  @ApiProperty({ example: 31.2304 }) latitude: number;
  @ApiProperty({ example: 121.4737 }) longitude: number;
}

export class UploadResponse {
  @ApiProperty({ format: 'uuid' }) upload_id: string;
  @ApiProperty({
    example: 'http://localhost:8000/uploads/task-proofs/2030-01-01/3sNq0cWm5mBv2k8JdQe1aTzX.jpg',
    description: 'Where the file is served; pass it in photo_urls of a submission.',
  })
  url: string;
  @ApiProperty({ enum: UPLOAD_CATEGORIES }) category: string;
  @ApiProperty({ enum: ACCEPTED_MIME_TYPES, description: 'Detected from the bytes, not the name or header.' })
  content_type: string;
  @ApiProperty({ type: 'integer' }) size_bytes: number;
  @ApiProperty({ example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' })
  sha256: string;
  @ApiProperty({ type: String, nullable: true, description: 'The name the client sent (informational).' })
  original_name: string | null;
  @ApiProperty({ type: GpsView, nullable: true, description: 'From the image EXIF, when present.' })
  gps: GpsView | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Capture time from EXIF.' })
  taken_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class MultipleUploadResponse {
  @ApiProperty({ type: [UploadResponse] }) files: UploadResponse[];
}
