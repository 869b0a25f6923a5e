import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { Role } from '@switchboard/contracts';

@Entity({ name: 'organizations' })
export class Organization {
  @PrimaryColumn() id: string;
  @Column() name: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

@Entity({ name: 'workspaces' })
export class Workspace {
  @PrimaryColumn() id: string;
  @Column({ name: 'organization_id' }) organizationId: string;
  @Column() name: string;
  @Column() region: string;
  @Column({ name: 'notification_emails', type: 'text', array: true, default: () => "'{}'" })
  notificationEmails: string[];
  @Column({ name: 'logo_url', type: 'text', nullable: true }) logoUrl: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

/** A secret-bearing credential: found by its public lookup part, verified by hash. */
abstract class StoredSecret {
  @PrimaryColumn() id: string;
  @Column({ name: 'workspace_id' }) workspaceId: string;
  @Column() lookup: string;
  @Column({ name: 'secret_hash', type: 'bytea' }) secretHash: Buffer;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;
}

@Entity({ name: 'api_keys' })
export class ApiKey extends StoredSecret {
  @Column({ type: 'text' }) role: Role;
}

@Entity({ name: 'access_keys' })
export class AccessKey extends StoredSecret {}

@Entity({ name: 'users' })
export class User {
  @PrimaryColumn() id: string;
  @Column({ name: 'workspace_id' }) workspaceId: string;
  @Column() email: string;
  @Column({ name: 'password_hash' }) passwordHash: string;
  @Column({ type: 'text' }) role: Role;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

@Entity({ name: 'sessions' })
export class Session {
  @PrimaryColumn() id: string;
  @Column({ name: 'user_id' }) userId: string;
  @Column() lookup: string;
  @Column({ name: 'secret_hash', type: 'bytea' }) secretHash: Buffer;
  @Column({ name: 'csrf_hash', type: 'bytea' }) csrfHash: Buffer;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true }) endedAt: Date | null;
}
