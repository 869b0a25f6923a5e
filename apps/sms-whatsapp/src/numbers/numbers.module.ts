import { Module } from '@nestjs/common';
import { NumbersHandler } from './numbers.handler';
import { NumbersRepository } from './numbers.repository';
import { NumbersService } from './numbers.service';
import { StockRepository } from './stock.repository';
import { StockService } from './stock.service';

/** Numbers: the operator's stock, the workspaces' holdings and their orders (`sms_whatsapp` data). */
@Module({
  controllers: [NumbersHandler],
  providers: [NumbersRepository, NumbersService, StockRepository, StockService],
})
export class NumbersModule {}
